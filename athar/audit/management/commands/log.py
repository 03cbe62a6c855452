from athar.core.command import GroupCommand


class Command(GroupCommand):
    help = "The audit log as a transparency log: signed checkpoints, proofs, keys and witnesses."
    group = "log"
