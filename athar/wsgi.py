"""WSGI entry point (gunicorn athar.wsgi)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "athar.settings")
application = get_wsgi_application()
