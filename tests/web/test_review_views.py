"""The review's views of a hand (issue 25, items 15 and 20): every hand shown once it is over, mistakes only, the agreement rate and the cost in all, the chart of the hand's worth, and an item asked again that shows nothing of the old answer in any state."""

from __future__ import annotations

import re

import pytest

from play import presenter, review_work
from play.models import Hand, ReviewItem
from play.templatetags.review_figures import cost, worth
from tests.play.helpers import decide_all, run_queued_tasks, summed
from tests.web.test_play_review import get, uploaded

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("reviews_worked_out_once")]


@pytest.fixture
def reviewed(client, django_capture_on_commit_callbacks, settings) -> Hand:
    settings.REVIEW_POLICY = "strong"  # the bot whose figures on this hand have costly and clear decisions both (what the views show)
    hand = uploaded(client, django_capture_on_commit_callbacks)
    run_queued_tasks()
    hand = decide_all(Hand.objects.get(pk=hand.pk))  # verdicts as enough deals would give (tests play a few)
    assert hand.review_state == Hand.DONE and any(d["costly"] for d in hand.review["decisions"]) and not all(d["costly"] for d in hand.review["decisions"])
    return hand


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def test_an_item_asked_while_its_review_is_worked_out_again_shows_nothing_of_the_old_answer(client, reviewed):
    decision = next(d for d in reviewed.review["decisions"] if d["costly"])
    review_work.store_review(hand=reviewed, figures=reviewed.review)
    item = ReviewItem.objects.get(hand=reviewed, step=decision["step"])
    Hand.objects.filter(pk=reviewed.pk).update(review_state=Hand.QUEUED, review=None)  # worked out again (a new method)
    page = get(client, f"/play/{reviewed.pk}/review/?step={item.step}&item={item.pk}")
    assert 'hx-trigger="every 2s"' in page and "pl-taken" not in page and "Next:" not in _text(page) and "接着" not in _text(page)


def test_an_item_of_another_step_shows_nothing_of_the_old_answer(client, reviewed):
    first, second = [d for d in reviewed.review["decisions"] if not d["same"]][:2]
    reviewed.review["decisions"][reviewed.review["decisions"].index(first)]["costly"] = True
    review_work.store_review(hand=reviewed, figures=reviewed.review)
    item = ReviewItem.objects.get(hand=reviewed, step=first["step"])
    page = get(client, f"/play/{reviewed.pk}/review/?step={second['step']}&item={item.pk}")
    assert "pl-taken" not in page and "pl-mine" not in page and "pl-compare" not in page and 'id="item-gone"' in page


def test_every_hand_is_shown_at_every_step_only_when_asked_and_the_hand_is_over(client, reviewed):
    step = reviewed.review["decisions"][1]["step"]
    own = get(client, f"/play/{reviewed.pk}/review/?step={step}")
    assert own.count('class="pl-hidden"') == 2 and 'id="open-switch" role="switch" aria-checked="false"' in own
    switch = re.search(r'<a href="([^"]+)"[^>]*id="open-switch"', own).group(1).replace("&amp;", "&")
    assert switch == f"/play/{reviewed.pk}/review/?step={step}&open=1"
    every = get(client, switch)
    assert every.count('class="pl-hidden"') == 0 and every.count('class="pl-revealed"') == 2 and 'aria-checked="true"' in every
    assert f'href="/play/{reviewed.pk}/review/?step={step + 1}&amp;open=1"' in every  # the steps keep the switch
    Hand.objects.filter(pk=reviewed.pk).update(over=False, source=Hand.UPLOAD)  # a record that stops before the end
    assert get(client, switch).count('class="pl-hidden"') == 2


def test_mistakes_only_lists_and_steps_through_the_clearly_costly_decisions(client, reviewed):
    decisions = reviewed.review["decisions"]
    costly = [d["step"] for d in decisions if d["costly"]]
    page = get(client, f"/play/{reviewed.pk}/review/?step=0&only=costly")
    listed = [int(n) for n in re.findall(r'<li value="(\d+)">', page.split('class="pl-declist"')[1])]
    assert listed == costly and len(decisions) > len(costly)
    nxt = re.search(r'href="([^"]+)"[^>]*id="step-next-decision"', page).group(1).replace("&amp;", "&")
    assert nxt == f"/play/{reviewed.pk}/review/?step={costly[0]}&only=costly"
    assert 'id="mistakes-switch" role="switch" aria-checked="true"' in page


def test_the_summary_gives_the_agreement_rate_and_the_cost_in_all(client, reviewed):
    decisions = reviewed.review["decisions"]
    agree, decided = sum(1 for d in decisions if d["same"]), sum(1 for d in decisions if d["decided"])
    costly = [d for d in decisions if d["costly"]]
    page = get(client, f"/play/{reviewed.pk}/review/")
    rate = _text(re.search(r'<span id="agree-rate">(.*?)</span>', page, re.S).group(1))
    assert re.search(rf"({agree}\D+{decided}|{decided}\D+{agree})\D+[(（]{round(100 * agree / decided)} %[)）]", rate), rate  # of the decided only
    total = presenter.hand_totals(reviewed.review)
    assert cost(total["cost"], total["cost_se"]) in _text(re.search(r'<strong id="total-cost">(.*?)</strong>', page, re.S).group(1))
    assert total["cost"] == pytest.approx(sum(d["cost"] for d in costly))


def test_the_chart_draws_each_decision_s_worth_and_its_figures_agree(client, reviewed):
    decisions = reviewed.review["decisions"]
    page = get(client, f"/play/{reviewed.pk}/review/")
    svg = re.search(r'<svg class="chart pl-worth" id="worth-chart".*?</svg>', page, re.S).group(0)
    assert 'role="group"' in svg and 'aria-labelledby="chart-h chart-caption"' in svg
    links = re.findall(r'<a href="([^"]+)" class="pt', svg)
    assert links == [f"/play/{reviewed.pk}/review/?step={d['step']}" for d in decisions]
    assert svg.count("mark mine") == len(decisions) and svg.count('class="pt costly') == sum(1 for d in decisions if d["costly"])
    rows = re.findall(r"<tr><td>(.*?)</tr>", page.split('id="worth-figures"')[1].split("</table>")[0], re.S)
    assert len(rows) == len(decisions)
    for row, d in zip(rows, decisions):
        mine = next(o for o in d["options"] if o["mine"])
        best = next(o for o in d["options"] if o["selected"])
        assert worth(mine["mean"], mine["se"]) in row and worth(best["mean"], best["se"]) in row
    ys = [float(y) for y in re.findall(r'cy="([-\d.]+)" r="[\d.]+" class="mark mine"', svg)]
    means = [next(o for o in d["options"] if o["mine"])["mean"] for d in decisions]
    for (y1, m1), (y2, m2) in zip(zip(ys, means), zip(ys[1:], means[1:])):
        assert (y1 - y2) * (m2 - m1) >= -1e-9  # higher worth is drawn higher (smaller y)


def test_an_item_asked_shows_no_chart_and_no_costliest_list(client, reviewed):
    decision = next(d for d in reviewed.review["decisions"] if d["costly"])
    review_work.store_review(hand=reviewed, figures=reviewed.review)
    item = ReviewItem.objects.get(hand=reviewed, step=decision["step"])
    page = get(client, f"/play/{reviewed.pk}/review/?step={item.step}&item={item.pk}")
    assert "worth-chart" not in page and "Costliest" not in page and "损失最大" not in page and f"/play/items/{item.pk}/" in page


def test_a_decision_too_close_to_call_says_so_and_is_not_counted_in_the_agreement(client, reviewed):
    """A decision neither set of deals can call: the page says so, grades nothing, and the rate counts only the decided."""
    review = reviewed.review
    close = review["decisions"][0]
    close.update(decided=False, same=False, worse=False, costly=False, reasons=[])
    for row in close["options"]:
        row.update(clear=False, best=False)
    Hand.objects.filter(pk=reviewed.pk).update(review=summed(review))
    page = get(client, f"/play/{reviewed.pk}/review/?step={close['step']}")
    verdict = _text(re.search(r'<p id="decision-verdict">(.*?)</p>', page, re.S).group(1))
    assert "太接近" in verdict and "不评分" in verdict and "pl-reasons" not in page.split('id="dec-h"')[1].split("</section>")[0]
    assert 'class="badge ok">最佳' not in page.split('class="pl-options"')[1].split("</table>")[0]
    decided = [d for d in review["decisions"] if d["decided"]]
    rate = _text(re.search(r'<span id="agree-rate">(.*?)</span>', page, re.S).group(1))
    assert f"{round(100 * sum(d['same'] for d in decided) / len(decided))} %" in rate and str(len(decided)) in rate
    assert "1 个太接近" in _text(re.search(r'<span id="too-close">(.*?)</span>', page, re.S).group(1))


def test_a_costly_decision_gives_its_reason_in_words(client, reviewed):
    review = reviewed.review
    dear = next(d for d in review["decisions"] if d["costly"])
    dear["reasons"] = [{"code": "deal_in", "seat": 1, "tile": "5p", "revealed": True}, {"code": "shanten", "mine": 2, "best": 1}]
    Hand.objects.filter(pk=reviewed.pk).update(review=review)
    page = get(client, f"/play/{reviewed.pk}/review/?step={dear['step']}")
    reasons = [_text(r) for r in re.findall(r"<li>(.*?)</li>", re.search(r'<ul class="pl-reasons" id="decision-reasons">(.*?)</ul>', page, re.S).group(1), re.S)]
    assert len(reasons) == 2 and "下家" in reasons[0] and "包胡" in reasons[0] and "五筒" in reasons[0] and "2" in reasons[1]
