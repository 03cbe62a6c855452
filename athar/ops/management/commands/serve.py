from athar.core.command import GroupCommand


class Command(GroupCommand):
    help = 'Serve the web site (gunicorn; static files included) at http://HOST:PORT, with the matching worker beside it.'
    group = 'serve'
