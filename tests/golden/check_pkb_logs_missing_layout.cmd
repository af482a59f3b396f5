# PKB 51 runs on 8 ranks in EP groups of 4 (suite pkb's ep_moe_narrow: ep 4,
# dp 2): a run with files for ranks 0-3 alone names ranks 4-7 missing, not
# only ranks up to the communication group's 4 (QA audit of 2026-12-07;
# tests/fixtures/pkb/README.md)
$CR check --pkb-logs tests/fixtures/pkb/missing_layout --topo hgx-h100-8
