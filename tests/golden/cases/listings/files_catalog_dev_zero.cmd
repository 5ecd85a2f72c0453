args: links --catalog /dev/zero
exit: 2
