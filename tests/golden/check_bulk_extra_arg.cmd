$CR check --measured-json - --m 5 </dev/null
