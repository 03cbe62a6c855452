from athar.core.command import GroupCommand


class Command(GroupCommand):
    help = 'Conflicts between claims and evidence (list, resolve, reopen); open ones block publication.'
    group = 'conflicts'
