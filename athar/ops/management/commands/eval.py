from athar.core.command import GroupCommand


class Command(GroupCommand):
    help = "Evaluate against known answers (athar eval linkage, ...)."
    group = "eval"
