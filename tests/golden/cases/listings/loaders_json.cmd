args: loaders --json
exit: 0
