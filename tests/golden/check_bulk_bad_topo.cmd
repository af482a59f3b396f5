echo '[]' | $CR check --measured-json - --topo no-such-machine
