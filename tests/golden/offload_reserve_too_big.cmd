args: offload --model 70b --gpu h100 --hbm-reserve 1
exit: 2
