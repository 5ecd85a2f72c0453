args: loaders
exit: 0
