args: coldstart --model 70b --sweep gpus=2:4:2 --format csv
exit: 0
