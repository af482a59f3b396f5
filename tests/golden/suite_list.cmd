$CR suite list
