args: tp --model 70b --gpus 1
exit: 2
