args: coldstart --model 70b --gpus 4 --sweep gpus=1:8
exit: 2
