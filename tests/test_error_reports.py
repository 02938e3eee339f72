from django.test import RequestFactory

from beano.error_reports import BeanoExceptionReporterFilter


def test_error_reports_mask_tins_and_id_numbers_whatever_the_prefix():
    request = RequestFactory().post(
        "/",
        {
            "payout-12-tin": "123456789",
            "payout-12-id1_number": "S1234567",
            "payout-12-w2g_legal_name": "Ann Pires",
            "id2_number": "X9",
        },
    )
    cleansed = BeanoExceptionReporterFilter().get_post_parameters(request)
    assert cleansed["payout-12-tin"] == "********************"
    assert cleansed["payout-12-id1_number"] == "********************"
    assert cleansed["id2_number"] == "********************"
    assert cleansed["payout-12-w2g_legal_name"] == "Ann Pires"
