"""A detached Ed25519 signature of ``report.json``, with a key the lab supplies.

Optional: it needs the ``cryptography`` package (``pip install 'rngcert[sign]'``).
``rngcert certify ... --sign-key KEY.pem`` writes ``report.json.sig`` (the
64-byte signature of the exact bytes of ``report.json``) and
``report.json.pub.pem`` (the public key, so a reader knows which key to
trust); anyone verifies with the lab's published public key, e.g.::

    from cryptography.hazmat.primitives.serialization import load_pem_public_key
    load_pem_public_key(open("lab.pub.pem", "rb").read()).verify(
        open("report/report.json.sig", "rb").read(), open("report/report.json", "rb").read())
"""
from __future__ import annotations

import pathlib

SIGNATURE, PUBLIC_KEY = "report.json.sig", "report.json.pub.pem"


class SigningError(ValueError):
    """The key cannot be used (one line saying why)."""


def load_key(path: pathlib.Path):
    """The Ed25519 private key in the PEM file ``path`` (PKCS#8, unencrypted)."""
    try:
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
        from cryptography.hazmat.primitives.serialization import load_pem_private_key
    except ImportError:
        raise SigningError("signing needs the cryptography package: pip install 'rngcert[sign]'") from None
    try:
        key = load_pem_private_key(path.read_bytes(), password=None)
    except OSError as exc:
        raise SigningError(f"{path}: cannot read the key: {exc.strerror or exc}") from None
    except (ValueError, TypeError) as exc:
        raise SigningError(f"{path}: not an unencrypted PEM private key ({exc})") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise SigningError(f"{path}: not an Ed25519 key ({type(key).__name__})")
    return key


def sign_report(out: pathlib.Path, key) -> None:
    """Write ``report.json.sig`` and ``report.json.pub.pem`` for ``out/report.json``."""
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    (out / SIGNATURE).write_bytes(key.sign((out / "report.json").read_bytes()))
    (out / PUBLIC_KEY).write_bytes(key.public_key().public_bytes(Encoding.PEM, PublicFormat.SubjectPublicKeyInfo))


__all__ = ["load_key", "sign_report", "SigningError", "SIGNATURE", "PUBLIC_KEY"]
