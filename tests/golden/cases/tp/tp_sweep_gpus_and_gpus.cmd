args: tp --model 70b --gpus 8 --sweep gpus=2:8
exit: 2
