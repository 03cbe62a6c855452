from athar.core.command import GroupCommand


class Command(GroupCommand):
    help = "Archives: statistics per facility (athar archive stats)."
    group = "archive"
