args: plan --model 8b --ttft 500ms --tpot 20ms --rate 20 --system aws-p5,aws-p4d --format csv
exit: 0
