"""Every committed record's provenance, checked against this repository's history (dormouse.records.record_provenance):
a record that carries a code hash must match the tree of the commit it names, unless the record itself says its tree
was dirty; a record that names its spec's hash must match the spec snapshot beside it. Records made before code
hashes existed are listed by status (the findings chapter marks those whose commit is unknown or abbreviated)."""
from collections import Counter
from dormouse.records import record_provenance


def test_every_record_matches_its_commit(capsys):
    prov = record_provenance()
    assert prov, "no record under runs/ names a commit"
    with capsys.disabled():
        print(f"\nprovenance of {len(prov)} records: {dict(Counter(r['status'] for r in prov))}")
        for r in prov:
            if r["status"] not in ("verified", "commit only"): print(f"  {r['status']:18s} {r['commit'][:12]:12s} {r['record']}")
    wrong = [r for r in prov if r["status"] == "code differs" and r["dirty"] is not True]
    assert not wrong, f"records whose code hash is not their commit's, though they claim a clean tree: {wrong}"
    bad_spec = [r for r in prov if r.get("spec_ok") is False]
    assert not bad_spec, f"records whose spec snapshot is not the spec they ran: {bad_spec}"
