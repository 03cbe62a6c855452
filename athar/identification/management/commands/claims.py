from athar.core.command import GroupCommand


class Command(GroupCommand):
    help = 'Claims on candidates and identifications (list, add, withdraw, review, inform, publish, forensic).'
    group = 'claims'
