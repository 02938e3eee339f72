import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "beano.settings")
application = get_wsgi_application()

# The flashboard's unchanged poll, five requests in six of a hall's night, answered before
# Django's request cycle on the same proof Django's view uses (games/flash_wsgi.py).
from games.flash_wsgi import UnchangedPolls  # noqa: E402  (the apps are loaded only now)

application = UnchangedPolls(application)

# What is loaded now (Django, the apps, their URLs and settings) lives as long as the process:
# it is put out of the garbage collector's reach, so that the full collections a large page
# sets off every few requests (an occasion's record makes tens of thousands of objects) do not
# scan it all again. Measured on the statewide record page: pauses of 70 to 120 ms every ten
# or so requests, gone (bench/RESULTS.md).
gc.freeze()
