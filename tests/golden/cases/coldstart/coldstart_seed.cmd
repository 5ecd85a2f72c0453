args: coldstart --model 70b
exit: 0
