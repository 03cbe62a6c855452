"""A local-mode Spark session for ``athar registry link --engine spark``.

Splink on Spark needs its similarity-functions jar on the classpath (Jaro-Winkler) and a
checkpoint directory; both are set here. Needs pyspark (the ``spark`` extra) and Java 17.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from django.conf import settings

from athar.config import env_str
from athar.core.errors import UserError


def local_session(cores: int = 2, memory: str | None = None) -> Any:
    """A local Spark session with Splink's jar and a checkpoint folder in ATHAR_HOME."""
    try:
        from pyspark.sql import SparkSession
        from splink.backends.spark import similarity_jar_location
    except ImportError as exc:
        raise UserError("the Spark engine needs pyspark: pip install 'athar[spark]' (and Java 17)") from exc
    checkpoints = Path(settings.ATHAR_HOME) / "spark-checkpoints"
    checkpoints.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    session = (
        SparkSession.builder.master(f"local[{cores}]")
        .appName("athar-registry-link")
        .config("spark.driver.memory", memory or env_str("ATHAR_SPARK_MEMORY"))
        .config("spark.jars", similarity_jar_location())
        .config("spark.sql.shuffle.partitions", "8")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.session.timeZone", "UTC")
        # Custom comparison levels are written in DuckDB SQL with "double-quoted" identifiers.
        .config("spark.sql.ansi.enabled", "true")
        .config("spark.sql.ansi.doubleQuotedIdentifiers", "true")
        .config("spark.driver.extraJavaOptions", "-Dlog4j.rootCategory=ERROR")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    session.sparkContext.setCheckpointDir(str(checkpoints))
    return session
