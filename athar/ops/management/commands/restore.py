from athar.core.command import GroupCommand


class Command(GroupCommand):
    help = 'Restore a backup (athar backup) into an empty ATHAR_HOME and database, then migrate and verify it; --force replaces existing data.'
    group = 'restore'
