"""The demo data that ``seed_demo`` loads: a real night for two organizations, seen from every
role, and today's practice occasion, open whatever the hour, at a practice hall that is not a
licensee (``beano.demo.seed``). It uses the apps' services like a user would; no app imports it.
"""

#: Every demo login's password, published in the README: never in production (``seed_demo``
#: refuses with DEBUG off).
DEMO_PASSWORD = "Beano-Demo-2026"
