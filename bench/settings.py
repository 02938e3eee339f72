"""The settings the load test runs the server with: the production settings as the environment
gives them (bench/load.py sets DEBUG=off, the secret key, PostgreSQL, Redis), with one change:
the bench's URLconf, which adds a bare view returning a constant (the framework's ceiling).
Never used by the application itself."""

from beano.settings import *  # noqa: F403

ROOT_URLCONF = "bench.urls"
