from django.urls import path

from equipment import inventory_views, paper_views

ORG = "org/<int:org_id>/"
OCC = ORG + "occasions/<int:pk>/"

urlpatterns = [
    path(ORG + "inventory/", inventory_views.card_inventory, name="card_inventory"),
    path(ORG + "inventory/add/", inventory_views.card_purchase_add, name="card_purchase_add"),
    path(ORG + "inventory/<int:pk>/use/", inventory_views.card_usage_add, name="card_usage_add"),
    path(
        ORG + "inventory/<int:pk>/proof/",
        inventory_views.card_purchase_proof,
        name="card_purchase_proof",
    ),
    path(OCC + "serials/", paper_views.occasion_serials, name="occasion_serials"),
    path(OCC + "serials/issue/", paper_views.issue, name="occasion_serials_issue"),
    path(
        OCC + "serials/<int:issue_id>/count-back/",
        paper_views.count_back,
        name="occasion_serials_count_back",
    ),
    path(OCC + "serials/explain/", paper_views.explain, name="occasion_serials_explain"),
    path(ORG + "paper-stock/", paper_views.paper_stock, name="paper_stock"),
    path(ORG + "paper-stock/destroy/", paper_views.destroy, name="paper_stock_destroy"),
    path(ORG + "paper-stock/count/", paper_views.stock_take, name="paper_stock_take"),
]
