from athar.core.command import GroupCommand


class Command(GroupCommand):
    help = 'Background worker: recompute candidate rankings when reports, cases or archives arrive.'
    group = 'worker'
