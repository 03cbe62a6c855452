from athar.core.command import GroupCommand


class Command(GroupCommand):
    help = 'Build a demo (synthetic archive, one account per role) in the data directory and serve it with the matching worker.'
    group = 'demo'
