$CR --help > /dev/full
