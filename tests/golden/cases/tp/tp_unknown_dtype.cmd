args: tp --model 70b --dtype bf61
exit: 2
