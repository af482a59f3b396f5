# --params is a whole count whose k/M/G/T are decimal (70G = 7e10,
# 65.2G = 65200000000); a count that is not whole (1.5 parameters) is
# refused, where it was rounded to 2 without a word
$CR op ddp --params 65.2G | grep -o "params=[0-9]*"
$CR op ddp --params 1.5
