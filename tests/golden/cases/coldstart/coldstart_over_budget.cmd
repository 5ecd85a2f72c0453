args: coldstart --model 70b --dtype fp8 --gpus 8 --from nvme-gen4 --budget 5
exit: 3
