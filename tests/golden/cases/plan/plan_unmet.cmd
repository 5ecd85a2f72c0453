args: plan --model 405b --ttft 1s --tpot 20ms --rate 5 --system aws-p5,l40s-8,aws-p4d
exit: 3
