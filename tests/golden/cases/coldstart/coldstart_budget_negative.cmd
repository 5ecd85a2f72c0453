args: coldstart --model 70b --budget -1
exit: 2
