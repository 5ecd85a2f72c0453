args: link
exit: 2
