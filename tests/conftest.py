"""Shared pytest configuration for rngcert's tests."""
