args: 
exit: 0
