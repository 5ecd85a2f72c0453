args: links --format csv
exit: 0
