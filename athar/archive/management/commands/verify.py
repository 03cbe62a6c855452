from athar.core.command import GroupCommand


class Command(GroupCommand):
    help = 'Re-hash every stored original and derivative and re-check the audit chain; non-zero exit if anything changed.'
    group = 'verify'
