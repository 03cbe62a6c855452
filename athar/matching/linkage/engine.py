"""Database engines for Splink: DuckDB (default, embedded) or Spark (local or a cluster)."""

from __future__ import annotations

import tempfile
from typing import Any

import pandas as pd

# The default; deployments set ATHAR_DUCKDB_MEMORY_LIMIT, which the registry app passes in
# (athar.matching reads no configuration of its own).
DUCKDB_MEMORY_LIMIT = "3GB"


def make_db_api(engine: str, spark: Any = None, memory_limit: str = DUCKDB_MEMORY_LIMIT) -> tuple[Any, str]:
    """(Splink database API, SQL dialect name) for 'duckdb' or 'spark'.

    DuckDB runs in memory with ``memory_limit`` (e.g. "3GB") and spills to a temporary directory
    beyond it."""
    if engine == "duckdb":
        import duckdb
        from splink import DuckDBAPI

        con = duckdb.connect(":memory:")
        con.execute(f"SET memory_limit = '{memory_limit}'")
        con.execute(f"SET temp_directory = '{tempfile.gettempdir()}/athar-duckdb-spill'")
        con.execute("SET preserve_insertion_order = false")
        con.execute("SET enable_progress_bar = false")
        return DuckDBAPI(connection=con), "duckdb"
    if engine == "spark":
        from splink import SparkAPI

        return SparkAPI(spark_session=spark or local_spark_session()), "spark"
    raise ValueError(f"unknown engine {engine!r}: use 'duckdb' or 'spark'")


def local_spark_session(cores: int = 2, memory: str = "2g") -> Any:
    """A local-mode Spark session (needs pyspark and Java 17)."""
    from pyspark.sql import SparkSession
    from splink.backends.spark import similarity_jar_location

    session = (
        SparkSession.builder.master(f"local[{cores}]")
        .appName("athar-linkage")
        .config("spark.driver.memory", memory)
        .config("spark.jars", similarity_jar_location())  # Splink's jaro_winkler etc.
        .config("spark.sql.shuffle.partitions", "8")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.session.timeZone", "UTC")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    if not session.sparkContext.getCheckpointDir():
        session.sparkContext.setCheckpointDir(tempfile.mkdtemp(prefix="athar-spark-checkpoints-"))
    return session


def register(db_api: Any, engine: str, table: pd.DataFrame, name: str) -> Any:
    """Register a pandas table with the backend (Spark gets a Spark DataFrame).

    The local Spark session is shared by every run in a process (``getOrCreate``), so the view
    of an earlier run is dropped first: a second link in one process must not fail on it."""
    if engine == "spark":
        spark = db_api.spark
        spark.catalog.dropTempView(name)
        table = spark.createDataFrame(table.astype(object).where(table.notna(), None))
    return db_api.register(table, table_name=name)
