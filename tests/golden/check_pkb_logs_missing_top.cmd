# the highest rank's file is missing (ranks 0-6 of the 8 that PKB 1's
# allreduce runs on): rank 7 is named missing, as a rank below the highest
# read would be (tests/fixtures/pkb/README.md)
$CR check --pkb-logs tests/fixtures/pkb/missing_top --topo hgx-h100-8
