$CR op list
