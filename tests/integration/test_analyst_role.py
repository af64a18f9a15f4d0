"""deploy/analyst_role.sql makes a login that reads every table and view, including those
made after it, and can change nothing."""

from __future__ import annotations

import shutil
import subprocess

import psycopg
import pytest
from sqlalchemy.engine import make_url

from tests.conftest import REPO_ROOT
from tests.integration.conftest import RUN_ID, skip_or_fail
from tests.integration.results_run import RealRun

pytestmark = pytest.mark.services

ROLE_SQL = REPO_ROOT / "deploy" / "analyst_role.sql"


def test_the_analyst_role_reads_everything_and_writes_nothing(real_run: RealRun) -> None:
    psql = shutil.which("psql")
    if psql is None:
        skip_or_fail("psql is not installed")
    role = f"analyst_{RUN_ID}"
    url = make_url(real_run.postgres_url)
    owner_dsn = url.set(drivername="postgresql").render_as_string(hide_password=False)
    analyst_dsn = url.set(drivername="postgresql", username=role, password="analyst-secret")
    argv = [psql, "-X", "-q", "-v", f"analyst_role={role}", "-v", "analyst_password=analyst-secret"]
    subprocess.run([*argv, "-f", str(ROLE_SQL), owner_dsn], check=True, timeout=60)
    try:
        with psycopg.connect(owner_dsn, autocommit=True) as owner:
            owner.execute("CREATE TABLE made_later (id integer)")  # as a later migration would
        with psycopg.connect(analyst_dsn.render_as_string(hide_password=False)) as analyst:
            batches = len(real_run.jsonl) + 1
            answer = analyst.execute("SELECT count(DISTINCT batch_id) FROM results").fetchone()
            assert answer == (batches,)
            analyst.execute("SELECT count(*) FROM cell_readings, made_later")
            analyst.rollback()
            with pytest.raises(psycopg.errors.ReadOnlySqlTransaction):
                analyst.execute("DELETE FROM batches")
            analyst.rollback()
            analyst.execute("SET default_transaction_read_only = off")  # a session may...
            analyst.commit()
            with pytest.raises(psycopg.errors.InsufficientPrivilege):  # ...the grants may not
                analyst.execute("DELETE FROM batches")
    finally:
        with psycopg.connect(owner_dsn, autocommit=True) as owner:
            owner.execute("DROP TABLE IF EXISTS made_later")
            owner.execute(f'DROP OWNED BY "{role}"')
            owner.execute(f'DROP ROLE "{role}"')
