"""The web API types positions and results with the library's document models, so its
OpenAPI schema describes a phase document rather than an arbitrary object."""

from __future__ import annotations

from calhamer.documents.phase import PhaseDocument


def test_openapi_describes_the_position_as_a_phase_document(client):
    schema = client.get("/openapi.json").json()
    parts = schema["components"]["schemas"]
    assert parts["GameNowOut"]["properties"]["position"] == {
        "$ref": "#/components/schemas/PhaseDocument"}
    document = parts["PhaseDocument"]
    assert set(document["properties"]) == set(PhaseDocument.model_fields)
    assert document["additionalProperties"] is False
    result = parts["ResultOut"]["properties"]["result"]
    assert "unknown" in str(result) and "succeeds" in str(result)


def test_the_view_holds_the_position_as_the_library_writes_it(standard_game):
    judge, gm, *_ = standard_game
    game_id = judge.game["id"]
    view = judge.client.get(f"/api/games/{game_id}", headers=gm.headers).json()
    position = view["position"]
    # Only the keys the library wrote, in its order: no defaults filled in by the model.
    assert list(position) == ["variant", "rules", "phase", "units", "centers"]
    assert PhaseDocument.model_validate(position).model_dump(mode="json") == position
