# A time far below its bound keeps the table's columns: the percentages
# in e-notation from 100,000 % on (a 1 ps time against a 2.5e18 us bound
# printed 27 digits; QA audit, session 41)
$CR check gemm --m 1G --n 1G --k 1G --measured-us 0.000001 | sed -n 5p
# bulk results name the operator as the catalog does, whatever its case in
# the entry (an entry's "Gemm" was echoed as given)
echo '[{"op":"Gemm","params":{"m":4096},"measured_us":5}]' | $CR check --measured-json - | grep '"op"'
