args: plan --model 405b --ttft 1s --tpot 20ms --rate 5 --system aws-p5,aws-p4d --json
exit: 3
