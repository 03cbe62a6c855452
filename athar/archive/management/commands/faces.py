from athar.core.command import GroupCommand


class Command(GroupCommand):
    help = "Faces: athar faces index (embed faces of ingested photos), athar faces search PHOTO..."
    group = "faces"
