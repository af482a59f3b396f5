# ranks joined only through a GPU outside the set: a usage error that says so (was "the bound is not a finite time"), for coll and sim
"$CR" coll sendrecv --topo tests/fixtures/xml/good-gpu-chain.xml --ranks 0,2 -b 1M -e 1M; echo "exit $?"; "$CR" sim sendrecv --topo tests/fixtures/xml/good-gpu-chain.xml --ranks 0,2 -b 1M
