# A bulk result's "topo" is the topology's name, as check, op and suite give
# it, not the path it was read from (it was "topologies/h200-1.xml"; QA
# audit, session 43); an entry whose topology cannot be loaded keeps it as
# given, with its error.
printf '[{"op":"gemm","params":{"m":4096,"n":4096,"k":4096,"dtype":"bf16"},"measured_us":2000},{"op":"gemm","params":{"m":64,"n":64,"k":64},"measured_us":5,"topo":"no/such.xml"}]' | $CR check --measured-json - --topo topologies/h200-1.xml | grep '"topo"'
