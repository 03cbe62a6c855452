from athar.core.command import GroupCommand


class Command(GroupCommand):
    help = "Court-ready exports: evidence of a case or facility (athar export evidence)."
    group = "export"
