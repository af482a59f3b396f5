$CR sim allreduce -b 1MB --grain fine
