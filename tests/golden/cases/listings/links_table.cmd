args: links
exit: 0
