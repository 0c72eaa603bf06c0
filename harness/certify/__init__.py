"""``rngcert certify``: one plan in, one evidence bundle out.

A certification plan (:mod:`harness.certify.plan`, TOML) names the
jurisdiction profiles, the engine and its seed, the devices to test (ours,
or capture files of a device we did not build), the games and the slot
models.  The run (:mod:`harness.certify.run`) goes through the registries,
so every game, device, statistical test and engine registered anywhere can
be named in a plan; each finished section is checkpointed
(:mod:`harness.certify.checkpoint`) so an interrupted run resumes where it
stopped.  The bundle (:mod:`harness.certify.bundle`) is ``report.json``
(validated by the shipped JSON Schema), its SHA-256, ``report.html``
(:mod:`harness.certify.html`) and a manifest hashing every file.
"""
