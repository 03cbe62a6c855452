from athar.core.command import GroupCommand


class Command(GroupCommand):
    help = 'Is athar working: the matching worker (alive, process id, last heartbeat), its queue, failed jobs and last error.'
    group = 'status'
